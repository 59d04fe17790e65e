print("strata-gen: under construction")
