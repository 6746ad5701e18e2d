setTimeout(function () { new Image().src = 'widget-ping.png'; }, 25);
