window.fromH2 = 'served over HTTP/2 from origin c';
