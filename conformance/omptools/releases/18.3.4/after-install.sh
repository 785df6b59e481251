#!/usr/bin/env bash
# 18.3.4 runs on the nearest published dependencies (spec §1): its exact
# native addon is not on the registry, and pi-natives@18.2.10 refuses an
# addon of another release unless it is loaded as a workspace package, that
# is from outside node_modules. So the package moves beside node_modules
# (resolving its imports still reaches node_modules one level up), the
# 18.2.11 addon files go next to its loader, and a link takes its place.
# Run by install.sh in the install folder.
set -euo pipefail
pkg=node_modules/@oh-my-pi/pi-natives
ws=pi-natives-workspace
if [ -L "$pkg" ]; then exit 0; fi
rm -rf "$ws"
mv "$pkg" "$ws"
cp node_modules/@oh-my-pi/pi-natives-linux-x64/*.node "$ws/native/"
ln -s "../../$ws" "$pkg"
