#!/usr/bin/env bash
# The pages' screenshots made again: runs the browser tests that take them (they save every screenshot
# under artifacts/, never in docs/), then copies over the committed image each page shows. Only images a
# page shows are committed (tests/docs/test_images.py); the rest stay test artifacts.
#
#   bash scripts/screenshots.sh           # the tests below, then the copies
#   bash scripts/screenshots.sh --copy    # only the copies, from artifacts/ as the last test run left them
set -euo pipefail
cd "$(dirname "$0")/.."

# artifact (under artifacts/)            page image (under docs/)
COPIES="
table-life/ready-1280.png               images/table-life/ready-1280.png
table-life/ready-390.png                images/table-life/ready-390.png
table-life/grace-1280.png               images/table-life/grace-1280.png
table-life/grace-390.png                images/table-life/grace-390.png
table-life/spectator-1280.png           images/table-life/spectator-1280.png
table-life/spectator-390.png            images/table-life/spectator-390.png
table-life/countdown-390.png            images/table-life/countdown-390.png
table-life/series-1280.png              images/table-life/series-1280.png
table-life/series-390.png               images/table-life/series-390.png
table-life/invite-used-1280.png         images/table-life/invite-used-1280.png
feel/table-move-1280.png                images/table-life/move-1280.png
feel/table-move-390.png                 images/table-life/move-390.png
ratings/profile-1280.png                images/ratings/profile-1280.png
quickplay/waiting-1280.png              images/quickplay/waiting-1280.png
quickplay/waiting-390.png               images/quickplay/waiting-390.png
players/players-8-1280.png              screenshots/players-8-1280.png
players/players-8-390.png               screenshots/players-8-390.png
waiting/waiting-1280.png                screenshots/waiting-1280.png
languages/table-lt-1280.png             screenshots/table-lt-1280.png
howto-lt-390.png                        howto/howto-lt-390.png
app/table-en-390.png                    images/app/table-en-390.png
app/table-en-1280.png                   images/app/table-en-1280.png
app/table-lt-390.png                    images/app/table-lt-390.png
app/table-lt-1280.png                   images/app/table-lt-1280.png
app/table-lv-390.png                    images/app/table-lv-390.png
app/table-lv-1280.png                   images/app/table-lv-1280.png
app/table-fy-390.png                    images/app/table-fy-390.png
app/table-fy-1280.png                   images/app/table-fy-1280.png
app/offline-en-390.png                  images/app/offline-en-390.png
app/offline-en-1280.png                 images/app/offline-en-1280.png
app/offline-lt-390.png                  images/app/offline-lt-390.png
app/offline-lt-1280.png                 images/app/offline-lt-1280.png
app/offline-lv-390.png                  images/app/offline-lv-390.png
app/offline-lv-1280.png                 images/app/offline-lv-1280.png
app/offline-fy-390.png                  images/app/offline-fy-390.png
app/offline-fy-1280.png                 images/app/offline-fy-1280.png
moderation/admin-1280.png               images/moderation/admin-1280.png
moderation/admin-390.png                images/moderation/admin-390.png
moderation/muted-1280.png               images/moderation/muted-1280.png
moderation/report-1280.png              images/moderation/report-1280.png
friends/friends-en-390.png              images/friends/friends-en-390.png
friends/friends-lt-390.png              images/friends/friends-lt-390.png
friends/friends-lv-390.png              images/friends/friends-lv-390.png
friends/friends-fy-390.png              images/friends/friends-fy-390.png
friends/friends-en-1280.png             images/friends/friends-en-1280.png
friends/friends-lt-1280.png             images/friends/friends-lt-1280.png
friends/friends-lv-1280.png             images/friends/friends-lv-1280.png
friends/friends-fy-1280.png             images/friends/friends-fy-1280.png
tournaments/event-en-390.png            images/tournaments/event-en-390.png
tournaments/event-lt-390.png            images/tournaments/event-lt-390.png
tournaments/event-lv-390.png            images/tournaments/event-lv-390.png
tournaments/event-fy-390.png            images/tournaments/event-fy-390.png
tournaments/event-en-1280.png           images/tournaments/event-en-1280.png
tournaments/event-lt-1280.png           images/tournaments/event-lt-1280.png
tournaments/event-lv-1280.png           images/tournaments/event-lv-1280.png
tournaments/event-fy-1280.png           images/tournaments/event-fy-1280.png
turn-based-en-1280.png                  images/turn-based/table-en-1280.png
turn-based-en-390.png                   images/turn-based/table-en-390.png
turn-based-lt-1280.png                  images/turn-based/table-lt-1280.png
turn-based-fy-390.png                   images/turn-based/table-fy-390.png
"
TESTS="tests/e2e/test_table_life.py tests/e2e/test_series.py tests/e2e/test_feel.py tests/e2e/test_ratings.py
tests/e2e/test_quickplay.py tests/e2e/test_players_bar.py tests/e2e/test_seating.py tests/e2e/test_languages.py
tests/e2e/test_howto.py tests/e2e/test_app.py tests/e2e/test_moderation.py tests/e2e/test_friends.py
tests/e2e/test_turn_based.py tests/e2e/test_tournaments.py"

if [ "${1:-}" != "--copy" ]; then
    # shellcheck disable=SC2086
    pytest $TESTS -q -p no:cacheprovider
fi
echo "$COPIES" | while read -r artifact image; do
    [ -n "$artifact" ] || continue
    if [ -f "artifacts/$artifact" ]; then
        cp "artifacts/$artifact" "docs/$image"
    else
        echo "screenshots: no artifacts/$artifact (did its test run?)" >&2
        exit 1
    fi
done
echo "screenshots: copied; git diff --stat docs/ shows what changed"
