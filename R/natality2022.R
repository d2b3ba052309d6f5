#' U.S. natality 2022: 50,000 births
#'
#' 50,000 births from the 2022 U.S. natality file, the data of the PGBB paper's
#' birthweight quantile regression (Section 6, Table S9; the paper uses the
#' 2024 file, n about 1.94 million, with the same variables).
#'
#' @format A data frame with 50,000 rows and 12 integer or numeric columns:
#' \describe{
#'   \item{BirthWeight}{birth weight in grams (233-6151 in this sample).}
#'   \item{Boy}{1 if the baby is a boy.}
#'   \item{Married}{1 if the mother is married.}
#'   \item{Black}{1 if the mother is Black.}
#'   \item{Age}{mother's age in years (18-45).}
#'   \item{AgeSq}{`Age^2`.}
#'   \item{Education}{mother's education, coded 0-3 (treat as a factor; the
#'     source does not label the categories).}
#'   \item{Precare}{start of prenatal care, coded 0-3 (treat as a factor; the
#'     source does not label the categories).}
#'   \item{Smoker}{1 if the mother smoked during pregnancy.}
#'   \item{CigPerDay}{cigarettes per day, coded 0-6.}
#'   \item{WeightGain}{mother's weight gain during pregnancy, pounds (0-98).}
#'   \item{WeightGainSq}{`WeightGain^2`.}
#' }
#' @details The ranges above are the variables' coded ranges, as a public bound
#'   for a private fit would be declared from the codebook. The paper's
#'   specification uses NOSMOKE (here `1 - Smoker`), BLACK, MARRIED, BOY and
#'   centred, scaled age and weight gain; see `vignette("birthweight")`.
#'   The records are real: treat them as the confidential data of an example,
#'   and declare bounds from definitions, never from the data.
#' @source `natality2022us.csv` of the National Bureau of Economic Research
#'   (<https://www.nber.org/research/data/vital-statistics-natality-birth-data>),
#'   as distributed in the `data/` folder of the CRAN package qfa (version 5.0,
#'   T.-H. Li, GPL (>= 2)), unchanged except for the object's name.
#' @docType data
#' @name natality2022
#' @keywords datasets
#' @usage data(natality2022, package = "pgbb")
#' @examples
#' data(natality2022, package = "pgbb")
#' str(natality2022)
#' mean(natality2022$BirthWeight)
NULL
