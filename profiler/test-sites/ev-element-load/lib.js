window.libRan = true;
