"""The package version (one definition; ``mjfast.__version__``)."""
__version__ = "0.1.0"
