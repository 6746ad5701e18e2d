var img = document.createElement('img');
img.src = 'made-by-script.png';
document.body.appendChild(img);
