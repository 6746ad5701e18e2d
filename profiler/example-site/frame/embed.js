// Runs in the cross-site iframe's own renderer.
window.addEventListener('load', function () { parent.postMessage('embed loaded', '*'); });
