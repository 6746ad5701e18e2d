document.title += ' (async ran)';
