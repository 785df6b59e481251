// The tools differential installs only the linux-x64 native addon; the
// other platforms' addons are replaced by this package. Loading it means
// the install is not what the differential expects: fail at once.
throw new Error("deskcheck tools differential: a native addon of another platform was loaded");
