window.timedRan = true;
