// Deferred script: runs after parsing, before DOMContentLoaded.
document.getElementById('status').textContent = 'ready';
