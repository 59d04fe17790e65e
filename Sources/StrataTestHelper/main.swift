print("strata-test-helper: under construction")
