"""What users touch: the CLI, the web page, plots and reports. Thin shells over the layers below."""
