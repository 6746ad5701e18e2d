var w = new Image(); w.src = 'from-written.png';
