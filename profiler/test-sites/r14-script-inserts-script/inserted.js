var img = new Image(); img.src = 'from-inserted.png';
