"""The grammar-tutor desktop app (PySide6). The core it drives lives in `tutor/` and never imports Qt."""
