"""Small pieces every part uses: modes, theme, the render boundary, terminal attention, safe input, the quiet cursor."""
