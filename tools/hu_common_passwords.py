"""Write backend/accounts/passwords/hu-common-passwords.txt.gz, the Hungarian common-password list that a
second CommonPasswordValidator checks beside Django's English one (backend/settings.py).

    python -m tools.hu_common_passwords

No public Hungarian password list is published as a file; NordPass publishes, each year, the most common
passwords found in leaks per country, and Hungarian news sites reported the Hungarian lists. Those are the
list's core (SEEN below, with the edition and where it was reported). Around them are the shapes the
reports describe: Hungarian words (the word "jelszó" itself, love words, pets), given names and their
pet forms, football clubs, places and the keyboard's rows (QWERTZ, Y beside X), each alone and followed
by the endings people add (123, 1234, a year, "!"), with and without accents. The words and names are
the project's own choice (given names common in Hungary, of the kind the Interior Ministry's yearly
first-name statistics rank highest, and their usual pet forms), not copied from a table.

Django's validator lower-cases the password before looking, so the list is lower case; "Jelszo1234" is
"jelszo1234". The file is written the same way every time (sorted, gzip without a time stamp).
"""

from __future__ import annotations

import gzip
import io
import unicodedata
from pathlib import Path

OUT = Path(__file__).resolve().parents[1] / "backend" / "accounts" / "passwords" / "hu-common-passwords.txt.gz"

# NordPass, "Top 200 most common passwords", Hungary, as reported:
SEEN = {
    # 2021 edition (top 20; qubit.hu, 2021-11-24), and words the same report names among women's top 10
    "2021": "123456 12345 123456789 qwerty 12345678 jelszo password 1234567 attila 1234 asdasd szerelem samsung "
            "mmklub qwertz 666666 lacika tomika macika zolika szeretlek macska cicamica csillag fradika fradi",
    # 2023 edition (top 5; androgeek.hu)
    "2023": "admin 123456 kinder123 nagyatad 12345678",
    # 2024 edition (top 20; Prím Online, 2024-11-15)
    "2024": "123456 qwerty123 qwerty1 123456789 63245009 12345 12345678 jelszo password asdasd 111111 83773049 "
            "8933959 000000 1234567 attila dick123 qwertz asd123 asdfgh",
    # 2025 edition (top 20; Prím Online, 2025-11-20)
    "2025": "admin 123456 12345678 123456789 jelszó nagyatad password solidary onlinepont 12345 kolompar01 "
            "motorola ellaci hotblood levente kicsimdurci csazoli krekels qweasd123 jezus001",
}

WORDS = """
jelszó jelszavam jelszo titok titkos titkom belépés bejelentkezés felhasználó felhasználónév admin adminisztrátor
szeretlek szerelem szerelmem kicsim kicsikém drágám édesem babám cicám mackó macika maci cica cicus cicamica
cicuska macska kiscica kutya kutyus kiskutya nyuszi nyuszika csillag csillagom napsugár virág rózsa tulipán
angyal angyalka angyalom tündér tündérke boldogság barátság barátom haver család gyerekek otthon anya apa anyu
apu mama papa nagymama nagypapa isten jézus mária magyar magyarország hungary budapest debrecen szeged pécs győr
miskolc nyíregyháza kecskemét balaton tokaj pálinka fradi fradika ferencváros újpest honvéd videoton
foci labdarúgás futball kosárlabda horgász vadász motor autó trabant lada suzuki opel számítógép internet
facebook nincs semmi valami bármi nemtudom elfelejtettem hello helló szia sziasztok jóreggelt szeretet
kinder nagyatad onlinepont levente csazoli kicsimdurci ellaci kolompar mmklub asdasd asdfgh asdfghjk
qwertz qwertzu qwertzuiop yxcvbn yxcvbnm ysdfgh asd123 qweasd qwertz123 jezus
"""

NAMES = """
lászló istván józsef jános zoltán sándor gábor ferenc attila péter tamás zsolt tibor andrás csaba imre lajos
györgy balázs róbert mihály gyula károly dávid norbert márk bence máté levente dániel ádám krisztián viktor
richárd roland gergő szabolcs béla miklós antal botond dominik kristóf milán zalán marcell olivér noel
mária erzsébet katalin éva ilona anna zsuzsanna margit judit ágnes andrea erika krisztina irén eszter tímea
anita edit mónika szilvia gabriella viktória nikolett zsófia anikó julianna piroska rozália beáta rita hanna
jázmin boglárka lili réka dóra petra noémi kitti nóra fanni bianka vivien dorina orsolya melinda ildikó
laci lacika pisti pistike jóska józsi jancsi jani zoli zolika sanyi sanyika gabi gabika feri ferike tomi
tomika peti petike andris csabi imi lali gyuri gyurika balu misi misike gyuszi karcsi dani danika ádi
marcsi marika kati katika évi évike ili ilike anci zsuzsi zsuzsika judit ági ágika niki nikike zsófi
moni monika szilvi gabi vivi dóri dorka reka lilike hanni bogi petra noncsi kitti
"""

ENDINGS = ["", "1", "12", "123", "1234", "12345", "123456", "0", "00", "01", "007", "11", "22", "69", "88", "99",
           "111", "666", "777", "!", "1!", "123!", "*"] + [str(year) for year in range(1950, 2031)] + \
          [f"{year % 100:02d}" for year in range(1950, 2031)]


def plain(word: str) -> str:
    """The word as typed without accents: "jelszó" is often "jelszo"."""
    return "".join(c for c in unicodedata.normalize("NFD", word) if not unicodedata.combining(c))


def passwords() -> list[str]:
    seen = {p.lower() for edition in SEEN.values() for p in edition.split()}
    bases = set()
    for word in (WORDS + NAMES).split():
        bases.update({word.lower(), plain(word.lower())})
    bases.update(p for p in seen if not p.isdigit())
    out = set(seen)
    for base in bases:
        out.update(base + ending for ending in ENDINGS)
    return sorted(out)


def write(path: Path = OUT) -> int:
    lines = passwords()
    data = io.BytesIO()
    with gzip.GzipFile(fileobj=data, mode="wb", mtime=0, filename="") as out:
        out.write(("\n".join(lines) + "\n").encode("utf-8"))
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data.getvalue())
    return len(lines)


if __name__ == "__main__":
    print(f"{write()} passwords written to {OUT}")
