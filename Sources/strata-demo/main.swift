print("strata-demo: under construction")
