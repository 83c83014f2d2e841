"""Signal strength by distance and walls: placed controllers hear each other
as the path-loss model says, report by report, with seeded noise; a
report below the receiver's sensitivity is lost; a link overrides the model
for its pair, and controllers not placed keep hearing at -50 dBm."""

import asyncio
import contextlib
import io
import statistics
import unittest

from bumble import hci

from estimator_air.__main__ import parse_arguments
from estimator_air.path_loss import PathLoss, Place, Wall
from support import AirTestCase, Host, advertise_legacy, scan_legacy

ADV = hci.HCI_LE_Set_Advertising_Parameters_Command.AdvertisingType


def places(*points: tuple[float, float]) -> list[Place]:
    return [Place(index, x, y) for index, (x, y) in enumerate(points)]


def readings(scanner: Host, advertiser: Host) -> list[int]:
    """The RSSI of every report `scanner` made of `advertiser`, in order."""
    address = advertiser.controller.public_address
    return [report.rssi for _, _, report in scanner.reports() if report.address == address]


class PathLossModelTest(unittest.TestCase):
    """The model alone: its means against the figures measured in rooms, and
    its noise."""

    def test_the_mean_falls_with_distance_as_measured_in_rooms(self):
        model = PathLoss(places((0, 0), (1, 0), (3, 4), (6, 8)))
        self.assertEqual(model.mean(0, 1), -59)
        # 5 m: -73 to -76 dBm in rooms; 10 m: -79 to -83.
        self.assertTrue(-76 <= model.mean(0, 2) <= -73, model.mean(0, 2))
        self.assertTrue(-83 <= model.mean(0, 3) <= -79, model.mean(0, 3))
        self.assertEqual(model.mean(2, 0), model.mean(0, 2))

    def test_nearer_than_half_a_metre_is_heard_as_at_half_a_metre(self):
        model = PathLoss(places((0, 0), (0.1, 0), (0.5, 0)))
        self.assertEqual(model.mean(0, 1), model.mean(0, 2))
        self.assertAlmostEqual(model.mean(0, 1), -52.38, places=2)

    def test_a_wall_costs_its_loss_only_to_a_path_through_it(self):
        open_room = PathLoss(places((0, 0), (4, 0)))
        brick = Wall(2, -5, 2, 5, 8)
        drywall = Wall(3, -5, 3, 5, 4)
        self.assertAlmostEqual(PathLoss(places((0, 0), (4, 0)), [brick]).mean(0, 1), open_room.mean(0, 1) - 8)
        self.assertAlmostEqual(PathLoss(places((0, 0), (4, 0)), [brick, drywall]).mean(0, 1),
                               open_room.mean(0, 1) - 12)
        beside = Wall(2, 1, 2, 5, 8)     # stops short of the path
        along = Wall(-1, 0, 5, 0, 8)     # the path runs along it
        behind = Wall(5, -5, 5, 5, 8)    # beyond the far radio
        self.assertEqual(PathLoss(places((0, 0), (4, 0)), [beside, along, behind]).mean(0, 1),
                         open_room.mean(0, 1))

    def test_the_noise_has_the_asked_spread_around_the_mean(self):
        model = PathLoss(places((0, 0), (3, 4)), noise_db=5, seed=7)
        draws = [model.report(0, 1) for _ in range(5000)]
        self.assertAlmostEqual(statistics.fmean(draws), model.mean(0, 1), delta=0.3)
        # Rounding to whole dBm adds 1/12 dB² of variance: 5.008 dB.
        self.assertAlmostEqual(statistics.pstdev(draws), 5.0, delta=0.25)

    def test_reports_stay_within_what_a_report_carries(self):
        # -52.4 dBm at 40 dB: a few reports in a hundred would be above 20.
        model = PathLoss(places((0, 0), (0, 0)), noise_db=40, seed=1)
        draws = [model.report(0, 1) for _ in range(2000)]
        self.assertEqual(max(draw for draw in draws if draw is not None), 20)
        self.assertGreater(draws.count(20), 20)


class PathLossAirTest(AirTestCase):
    """The model on the air: what a scanning host is reported."""

    def heard(self, path_loss: PathLoss, count: int, seconds: float = 10.0, links: list[str] = ()) -> list[Host]:
        """`count` hosts, each scanning and advertising every second for
        `seconds` on an air of `path_loss`."""
        hosts: list[Host] = []

        async def run():
            hosts.extend(self.make_air(count, extended=False, links=links, path_loss=path_loss))
            for host in hosts:
                await scan_legacy(host, active=False)
            for host in hosts:
                await advertise_legacy(host, ADV.ADV_NONCONN_IND)
            await asyncio.sleep(seconds)
        self.run_air(run())
        return hosts

    def test_reports_carry_the_rssi_of_the_distance(self):
        a, b, c = self.heard(PathLoss(places((0, 0), (5, 0), (10, 0))), 3)
        self.assertEqual(set(readings(a, b)), {-74})
        self.assertEqual(set(readings(a, c)), {-81})
        self.assertEqual(set(readings(c, a)), {-81})
        self.assertEqual(set(readings(c, b)), {-74})
        self.assertGreaterEqual(len(readings(a, c)), 9)

    def test_a_wall_between_lowers_the_reports_by_its_loss(self):
        a, b, c = self.heard(PathLoss(places((0, 0), (4, 0), (0, 4)), [Wall(2, -1, 2, 1, 8)]), 3)
        self.assertEqual(set(readings(a, b)), {-80})  # -72.2 through 8 dB of brick
        self.assertEqual(set(readings(a, c)), {-72})  # the same distance, no wall

    def test_a_report_below_the_sensitivity_is_not_heard(self):
        # 20 m: -87.6 dBm; through 8 dB of brick -95.6, heard; through
        # another 10 dB of concrete -105.6, lost.
        a, b, c = self.heard(PathLoss(places((0, 0), (20, 0), (0, 20)),
                                      [Wall(10, -1, 10, 1, 8), Wall(-1, 10, 1, 10, 18)]), 3)
        self.assertEqual(set(readings(a, b)), {-96})
        self.assertEqual(readings(a, c), [])
        self.assertEqual(readings(c, a), [])
        self.assertGreaterEqual(len(readings(c, b)), 9)

    def test_noise_near_the_sensitivity_loses_the_weak_reports_only(self):
        # 40 m: -94.2 dBm; a fifth of the reports fall below -100 at 7 dB.
        a, b = self.heard(PathLoss(places((0, 0), (40, 0)), noise_db=7, seed=3), 2, seconds=200)
        heard = readings(a, b)
        self.assertTrue(150 <= len(heard) <= 190, len(heard))
        self.assertGreaterEqual(min(heard), -100)

    def test_noise_swings_a_steady_peers_readings_and_repeats_with_the_seed(self):
        plan = places((0, 0), (8, 0))
        first = readings(*self.heard(PathLoss(plan, noise_db=5, seed=11), 2, seconds=100))
        again = readings(*self.heard(PathLoss(plan, noise_db=5, seed=11), 2, seconds=100))
        other = readings(*self.heard(PathLoss(plan, noise_db=5, seed=12), 2, seconds=100))
        self.assertEqual(first, again)
        self.assertNotEqual(first, other)
        # 8 m: -78.9 dBm.
        self.assertAlmostEqual(statistics.fmean(first), -78.9, delta=1.5)
        self.assertTrue(3.5 <= statistics.pstdev(first) <= 6.5, statistics.pstdev(first))
        self.assertGreaterEqual(max(first) - min(first), 15)

    def test_a_pairs_readings_do_not_depend_on_the_other_pairs(self):
        pair = readings(*self.heard(PathLoss(places((0, 0), (8, 0)), noise_db=5, seed=11), 2))
        a, b, _ = self.heard(PathLoss(places((0, 0), (8, 0), (3, 3)), noise_db=5, seed=11), 3)
        self.assertEqual(readings(a, b), pair)

    def test_a_link_overrides_the_model_and_a_radio_not_placed_hears_at_minus_50(self):
        a, b, c, d = self.heard(PathLoss(places((0, 0), (10, 0), (5, 0))), 4, links=["0-1=-60", "1-2=none"])
        self.assertEqual(set(readings(a, b)), {-60})
        self.assertEqual(readings(b, c), [])
        self.assertEqual(set(readings(a, c)), {-74})
        for placed in (a, b, c):
            self.assertEqual(set(readings(placed, d)), {-50})
            self.assertEqual(set(readings(d, placed)), {-50})


class PathLossOptionTest(unittest.TestCase):
    """`--place`, `--wall`, `--noise` and `--seed` as `python -m estimator_air` reads them."""

    def refused(self, *options: str, transports: int = 3) -> str:
        """What the parser says on refusing `options`; fails unless it exits
        with status 2, argparse's usage error."""
        error = io.StringIO()
        with contextlib.redirect_stderr(error), self.assertRaises(SystemExit) as exit:
            parse_arguments(list(options) + ["vhci"] * transports)
        self.assertEqual(exit.exception.code, 2)
        return error.getvalue()

    def test_it_takes_places_walls_noise_and_seed(self):
        # argparse takes "-2,..." for an option: a wall from a negative X1 is
        # given as --wall=X1,....
        links = parse_arguments(["--place", "0=0,0", "--place", "1=-4.5,0", "--wall=-2,-1,-2,1=8",
                                 "--noise", "4.5", "--seed", "9", "--link", "0-2=-70",
                                 "vhci", "vhci", "vhci"]).links
        model = links.path_loss
        self.assertEqual(model.places[1], Place(1, -4.5, 0))
        self.assertEqual(model.walls, [Wall(-2, -1, -2, 1, 8)])
        self.assertEqual((model.noise_db, model.seed), (4.5, 9))
        self.assertEqual(links.rssi(0, 2), -70)

    def test_with_noise_and_no_seed_it_writes_the_seed_it_drew(self):
        error = io.StringIO()
        with contextlib.redirect_stderr(error):
            args = parse_arguments(["--noise", "4", "--place", "0=0,0", "vhci"])
        self.assertEqual(error.getvalue(), f"estimator_air: noise seed {args.links.path_loss.seed}\n")

    def test_it_refuses_a_place_that_is_not_i_equals_x_y(self):
        for place in ("0=1", "0=1,2,3", "a=1,2", "0=1,x", "0=nan,1", "0:1,2"):
            with self.subTest(place=place):
                self.assertIn(f"'{place}' is not I=X,Y", self.refused("--place", place))

    def test_it_refuses_a_place_out_of_range_or_given_twice(self):
        self.assertIn("'3=0,0' places controller 3, but 3 transports make controllers 0 to 2.",
                      self.refused("--place", "3=0,0"))
        self.assertIn("'1=2,2' places controller 1 a second time.",
                      self.refused("--place", "1=0,0", "--place", "1=2,2"))

    def test_it_refuses_a_wall_that_is_not_two_ends_and_a_loss(self):
        for wall in ("0,0,1,1", "0,0,1=8", "0,0,1,1=-4", "0,0,1,1=x", "0,0,1,1=inf"):
            with self.subTest(wall=wall):
                self.assertIn(f"'{wall}' is not X1,Y1,X2,Y2=DB", self.refused("--wall", wall))
        self.assertIn("'1,1,1,1=8': a wall's two ends must differ.", self.refused("--wall", "1,1,1,1=8"))

    def test_it_refuses_a_noise_that_is_not_a_number_0_or_more(self):
        for noise in ("-1", "loud", "nan", "inf"):
            with self.subTest(noise=noise):
                self.assertIn(f"'{noise}': the noise is a standard deviation in dB, a number 0 or more.",
                              self.refused("--noise", noise))
