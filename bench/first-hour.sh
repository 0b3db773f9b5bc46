#!/bin/bash
# The first hour of a new user, with the README alone: `git clone`, `npm ci && npm start`, then in another terminal
# a key and `roomcraft run upscale PHOTO` against the started service. Prints each step's wall time.
#   npm run bench:first-hour            clones this repository's committed HEAD into a temporary directory
# The photo is a shared room photo reduced to 640 px wide (the README's first call; a new user brings their own).
set -euo pipefail
REPO=$(git -C "$(dirname "$0")/.." rev-parse --show-toplevel)
SHARED=${ROOMCRAFT_SHARED:-$REPO/../shared}
PORT=${PORT:-8090}
WORK=$(mktemp -d /tmp/roomcraft-first-hour.XXXXXX)
trap 'pkill -f "$WORK/main/dist/main.js serve" || true' EXIT
ln -s "$(cd "$SHARED" && pwd)" "$WORK/shared"
(cd "$REPO" && node -e "require('sharp')(process.argv[1]).resize(640).jpeg({ quality: 90 }).toFile(process.argv[2])" \
  "$SHARED/testdata/rooms/empty_room_02.jpg" "$WORK/room.jpg")
now() { date +%s.%N; }
t0=$(now)
git clone -q "$REPO" "$WORK/main" && cd "$WORK/main"
t1=$(now)
npm ci --no-audit --no-fund > "$WORK/npm-ci.log" 2>&1
t2=$(now)
(PORT=$PORT npm start > "$WORK/start.log" 2>&1 &)
until grep -q "listening on" "$WORK/start.log" 2>/dev/null; do sleep 0.5; done
t3=$(now)
KEY=$(./bin/roomcraft keys create --email you@example.com --kind test | tail -n 1)
ROOMCRAFT_URL=http://localhost:$PORT ROOMCRAFT_API_KEY=$KEY ./bin/roomcraft run upscale "$WORK/room.jpg"
t4=$(now)
node -e "
const [t0, t1, t2, t3, t4] = process.argv.slice(1).map(Number);
const s = (a, b) => (b - a).toFixed(1) + ' s';
console.log('clone ' + s(t0, t1) + '; npm ci ' + s(t1, t2) + '; npm start until listening (models install included) ' + s(t2, t3) +
  '; key and roomcraft run upscale ' + s(t3, t4) + '; total ' + s(t0, t4));" "$t0" "$t1" "$t2" "$t3" "$t4"
