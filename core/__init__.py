"""The kernel every app may import: errors, OpenAPI error helpers, strict fields, text, tokens, URL safety. It imports no app."""
