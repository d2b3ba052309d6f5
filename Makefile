# Developer targets. The README's two commands are `bash tools/main.sh` and
# `bash tools/test.sh`; everything here is a convenience around them.
.PHONY: deps install main test document check bench sanitize valgrind clean

deps:
	bash tools/install-deps.sh

# roxygen reads the installed package (pkgload would need pkgbuild to compile).
document:
	Rscript --vanilla -e 'Rcpp::compileAttributes()'
	bash tools/install.sh
	Rscript --vanilla -e 'roxygen2::roxygenise(load_code = "installed")'

install: deps
	bash tools/install.sh

main:
	bash tools/main.sh

test:
	bash tools/test.sh

check: deps
	rm -rf check && mkdir -p check && cd check && R CMD build .. && \
	  _R_CHECK_FORCE_SUGGESTS_=false R CMD check --no-manual pgbb_*.tar.gz

bench: install
	Rscript --vanilla bench/run.R

sanitize:
	$(MAKE) -C src/core/tests sanitize

# Memcheck of the R workload in tools/valgrind-subset.R (minutes; not part of `test`).
valgrind:
	bash tools/valgrind.sh

clean:
	rm -rf check src/*.o src/*.so src/*.dll
