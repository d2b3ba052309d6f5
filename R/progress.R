# One progress display for every long fit (pgbb_fit(), dp_sgld()): cli's bar
# with the share done and the time left when cli is installed, else a text bar.
# Either appears only once the fit has run for a while (cli: its
# `cli.progress_show_after` option, 2 s by default; the text bar: 1 s), so
# short fits stay silent. The display is the analyst's own and is not part of
# any release.
#
# Returns a function(done) that moves the bar to `done` of `total` steps; the
# bar closes at `total` or (cli) when the calling function `envir` returns.
.progress_start <- function(total, what, envir = parent.frame(),
                            use_cli = requireNamespace("cli", quietly = TRUE)) {
  if (use_cli) {
    id <- cli::cli_progress_bar(name = what, total = total, clear = TRUE, .envir = envir,
                                format = "{cli::pb_name} {cli::pb_bar} {cli::pb_percent} | ETA {cli::pb_eta}")
    return(function(done) cli::cli_progress_update(set = done, id = id, .envir = envir))
  }
  start <- proc.time()[["elapsed"]]
  pb <- NULL
  function(done) {
    if (is.null(pb)) {
      if (proc.time()[["elapsed"]] - start < 1) return(invisible())
      pb <<- utils::txtProgressBar(min = 0, max = total, style = 3)
    }
    utils::setTxtProgressBar(pb, done)
    if (done >= total) close(pb)
  }
}
