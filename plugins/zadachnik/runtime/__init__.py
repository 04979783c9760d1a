"""The browser runtime: its assets (JS, CSS, vendored libraries) and the offline copy."""
