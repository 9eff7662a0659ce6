"""Hardware and model catalogs as data files (JSON), each figure with its source."""
