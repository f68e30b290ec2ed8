"""Small pieces every part uses: modes, theme, the render boundary, terminal attention, text cut to a width,
safe input, the quiet cursor."""
