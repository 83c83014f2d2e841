# The record holds through the relay (issue 52): `people`, step for step,
# with every laptop on `--adapter none` meeting through a mosquitto in the
# guest (PEOPLE_PATH=relay; people.sh says what each step does and checks).
# radios: 1
# timeout: 300
# not-on-bumble: no vote crosses a radio here: the controller model changes nothing

PEOPLE_PATH=relay
# shellcheck source=people.sh
. "$(dirname "$0")/people.sh"
