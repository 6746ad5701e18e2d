window.blockingRan = true;
