# The project's test-only air (Tests/Air): Bumble's LE controller model with
# the project's corrections (docs/RIG.md), in a venv of its own made from
# the pinned requirements. The rig runs it in the guest (make e2e
# CONTROLLER=bumble), its iPhone model on either controller model, and its
# reader of the air record (estimator_air.air_record, standard library
# only) for lib.sh's air_* helpers; its unit tests need neither the guest
# nor /dev/vhci.
#
#   make air-test    the model's and the reader's unit tests (part of `make test`)
#   make air-venv    only the venv (.venv-air/)

# python3-venv: Debian's python3 makes no venv without it.
AIR_DEBS := python3-venv
AIR_VENV := .venv-air
PYTHON3 ?= python3

.PHONY: air-venv air-test
# Made again when the requirements change; the stamp is written last, so a
# failed install is retried.
$(AIR_VENV)/installed: Tests/Air/requirements.txt
	@$(MAKE) --no-print-directory deps-air DEBS="$(AIR_DEBS)"
	rm -rf $(AIR_VENV)
	$(PYTHON3) -m venv $(AIR_VENV)
	$(AIR_VENV)/bin/pip install -q --disable-pip-version-check -r Tests/Air/requirements.txt
	touch $@

air-venv: $(AIR_VENV)/installed

# No bytecode in the tree: the guest sees it read-only, and it is not ours to keep.
air-test: air-venv
	cd Tests/Air && PYTHONDONTWRITEBYTECODE=1 ../../$(AIR_VENV)/bin/python -m unittest discover -s tests
