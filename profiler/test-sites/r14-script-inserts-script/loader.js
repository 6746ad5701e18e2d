var s = document.createElement('script');
s.src = 'inserted.js';
document.head.appendChild(s);
