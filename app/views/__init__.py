"""The app's widgets: one module per screen or reusable widget."""
