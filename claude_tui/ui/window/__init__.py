"""The window: the screen that holds one chat per tab, the tab bar and its layout, the overview."""
