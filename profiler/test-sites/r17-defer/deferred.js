window.deferredRan = document.readyState;
