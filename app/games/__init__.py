"""The games Umbra runs; each subpackage registers one game with ``app.kernel.registry``."""
