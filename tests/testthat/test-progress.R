# R/progress.R: one progress display for the long fits, silent for short ones.

prog_data <- local({
  set.seed(3)
  d <- data.frame(x = runif(500))
  d$y <- d$x + rnorm(500)
  d
})
prog_fit <- function(iterations) {
  quiet_noise(pgbb(y ~ x, prog_data, loss = "huber", epsilon = 4,
                   bounds = list(x = c(0, 1), .response = c(-5, 6)),
                   control = pgbb_control(iterations = iterations, hidden = 8, draws = 50, blocks = 5),
                   progress = TRUE))
}

test_that("a fit with progress = TRUE shows cli's bar once it has run long enough", {
  skip_if_not_installed("cli")
  withr_opt <- options(cli.progress_show_after = 0)
  on.exit(options(withr_opt))
  shown <- paste(capture.output(invisible(prog_fit(400)), type = "message"), collapse = "\n")
  expect_match(shown, "PGBB: 5 trainings")
  expect_match(shown, "100%")
})

test_that("a short fit stays silent (cli waits before it shows a bar)", {
  skip_if_not_installed("cli")
  withr_opt <- options(cli.progress_show_after = 60)
  on.exit(options(withr_opt))
  shown <- capture.output(out <- capture.output(invisible(prog_fit(50))), type = "message")
  expect_identical(c(shown, out), character(0))
})

test_that("the text bar without cli appears only after a second", {
  shown <- capture.output({
    bar <- pgbb:::.progress_start(10, "test", use_cli = FALSE)
    bar(3)
  })
  expect_identical(shown, character(0))
  shown <- capture.output({
    Sys.sleep(1.05)
    bar(10)
  })
  expect_match(paste(shown, collapse = ""), "100%")
})
