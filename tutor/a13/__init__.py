"""§A13 correction: sentence analysis, candidate answers, prompt, explanations."""
