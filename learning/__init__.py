"""The learning side: training, corpora and evaluation. Serving never imports it."""
