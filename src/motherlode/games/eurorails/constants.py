"""Eurorails: the numbers of the rules (rulebook ../shared/rulebooks/eurorails.txt) and the
state's phase and offer-stage codes, shared by the rule parts, the notation and the views."""

NUM_CARDS = 168
FIRST_EVENT = 147
MAX_LOADS = 32
MAX_PLAYERS = 6
RENT = 4
SPEND_LIMIT = 20
CROSSGRADE = 5
# The Circus (rulebook "Variant Rules"; content: loads.json "circus")
CIRCUS_CITIES = ("Kaliningrad", "Paris")
CIRCUS_PAY = 20
CIRCUS_DIVISOR = 10
MOVE_FEE = 1  # Challenge Game, Cost to Move: a turn's moves on the player's own track
CONTRACTS = 4  # Challenge Game, Open Contracts: at most 4 face up
PRICE_MAX = 250  # Selling and Trading Track: the highest price an offer may name
TRACK_WORTH = 0.75  # search heuristic: million a milepost of a player's network is worth
MAJOR_WORTH = 8.0  # search heuristic: million a major city joined into one network is worth
UPGRADE_WORTH = 15.0  # search heuristic: million an upgrade (20 paid) is worth
LOAN = 20  # Mercy: Borrowing, the most a player may owe the bank (before doubling)
FOREVER = 1 << 30
CHANNEL = "English Channel"

# stages of an offer (Selling and Trading Track)
COMPOSING, PRICED, PROPOSED = range(3)
OFFER_STAGES = ("composing", "priced", "proposed")

# phases of the turn player
DEAL, BUILD, OPS, OVER = range(4)
PHASE_NAMES = ("deal", "build", "move", "over")

# fields copied by clone / serialize (lists of ints, or lists of lists of ints)
SCALAR_FIELDS = (
    "phase",
    "first",
    "t",
    "moves",
    "halved",
    "spent",
    "from_major",
    "upgraded",
    "end_now",
    "discarding",
    "target",
    "cash_public",
    "over",
)
LIST_FIELDS = (
    "cash",
    "train",
    "pos",
    "prev",
    "draw",
    "discard",
    "aside",
    "chips",
    "edge_owner",
    "turns_done",
    "lost",
    "on_ferry",
    "rented",
    "declared",
    "pending",
    "winners_",
    "blocked",
)
NESTED_FIELDS = ("loads", "hands", "link_owners", "active", "reserve", "erased")
