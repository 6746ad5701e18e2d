// Served 300 ms late, so the same-origin frame has loaded; adds an image to the frame's document.
var doc = frames[0].document;
var img = doc.createElement('img');
img.src = 'into-frame.png';
doc.body.appendChild(img);
