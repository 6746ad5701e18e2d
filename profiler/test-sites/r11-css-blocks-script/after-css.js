window.cssApplied = getComputedStyle(document.body).marginTop;
