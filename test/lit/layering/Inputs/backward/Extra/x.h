// In no layer.
