// The conformance harness replaces dependencies of the release that none of
// the modules it imports ever loads with this package, to keep the install
// small. If one is loaded after all, fail at once rather than run the
// release's code with something missing.
throw new Error("deskcheck conformance: a dependency of the OMP release was loaded that the harness leaves out (see conformance/omp/package.json overrides)");
