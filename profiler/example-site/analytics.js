// Async script: runs whenever it arrives and reports with an image beacon.
var beacon = new Image();
beacon.src = 'beacon.png?t=1';
