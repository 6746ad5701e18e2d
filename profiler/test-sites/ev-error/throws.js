throw new Error('deliberate');
