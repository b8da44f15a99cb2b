"""The app's pages, one module each."""
