"""``mindspore.version``: ``__version__`` is the MindSpore release whose API sprout implements (code that compares
``mindspore.__version__`` takes that release's paths); ``sprout_version`` is sprout's own release."""

__version__ = "2.10.0"
sprout_version = "0.1.0"
