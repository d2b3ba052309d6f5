library(testthat)
library(pgbb)

test_check("pgbb")
