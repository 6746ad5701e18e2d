// Synchronous script: blocks the parser until it has run.
window.pcpExample = { started: Date.now() };
document.documentElement.className = 'js';
window.addEventListener('message', function (e) { window.pcpExample.message = e.data; });
