setTimeout(function () { var i = new Image(); i.src = 'from-timer.png'; }, 50);
