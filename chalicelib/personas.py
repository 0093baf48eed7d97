"""Character sets: the personas players choose when they join (name, one-line profile)."""

from msgspec import Struct


class Persona(Struct, frozen=True):
    key: str
    name: str
    profile: str


# The project's own set, written for this village: a mountain post town of the Meiji era.
YAMAZATO: tuple[Persona, ...] = (
    Persona("kaede", "楓", "峠の茶屋の看板娘。客の顔と好みは一度で覚える。"),
    Persona("genzo", "源蔵", "村いちばんの古株の炭焼き。口は悪いが面倒見がいい。"),
    Persona("sayo", "小夜", "寺子屋で読み書きを教える若い師匠。夜更かしが癖。"),
    Persona("tokubei", "徳兵衛", "造り酒屋の主人。勘定にうるさく、噂話にはもっとうるさい。"),
    Persona("hanae", "花江", "薬草に詳しい産婆。村の子の半分は彼女が取り上げた。"),
    Persona("ryunosuke", "龍之介", "都から戻った書生。洋書を抱えて歩き回る。"),
    Persona("oume", "お梅", "機織りの名手。手は速いが、話はもっと速い。"),
    Persona("heikichi", "平吉", "渡し舟の船頭。川の機嫌なら誰よりも分かる。"),
    Persona("shino", "志乃", "庄屋の一人娘。気位は高いが、嘘は嫌い。"),
    Persona("mataza", "又左", "流れ者の研ぎ師。腕は確かだが素性は語らない。"),
    Persona("kikue", "菊枝", "宿場の女将。泊まり客の荷物の重さで身の上を当てる。"),
    Persona("sanji", "三治", "猟師。雪の上の足跡から何でも読み取る。"),
    Persona("yuki", "雪", "神社の巫女見習い。夢見がよく当たると評判。"),
    Persona("kanemon", "兼右衛門", "村の長老。昔話が長いが、大事なことは短く言う。"),
    Persona("tsuru", "つる", "飯屋の娘。大盛りの量は相手の顔色で決める。"),
    Persona("ihei", "伊平", "鍛冶屋の若旦那。鉄の音で天気を占う。"),
    Persona("chiyo", "千代", "糸繰りの老婆。村の誰よりも古い秘密を知っている。"),
    Persona("bunta", "文太", "飛脚。峠を一日で三度越えたと自慢する。"),
    Persona("otama", "お玉", "瀬戸物屋のおかみ。割れ物と嘘は音で分かる。"),
    Persona("seijuro", "清十郎", "剣術道場の師範代。無口で、笑うと怖い。"),
    Persona("natsu", "なつ", "養蚕農家の末娘。桑畑で見たことは全部覚えている。"),
    Persona("kyusaku", "久作", "寺の下男。鐘をつく時刻だけは一度も違えたことがない。"),
    Persona("rin", "りん", "旅芸人一座の三味線弾き。村に居着いて三年になる。"),
    Persona("gonroku", "権六", "木こりの大男。熊と相撲を取ったという噂がある。"),
)

CHARACTER_SETS: dict[str, tuple[Persona, ...]] = {"yamazato": YAMAZATO}
CHARACTER_SET_LABELS = {"yamazato": "山里（明治の宿場町）"}  # the 村建て page's words
DEFAULT_CHARACTER_SET = "yamazato"


def persona(character_set: str, key: str) -> Persona | None:
    return next((p for p in CHARACTER_SETS.get(character_set, ()) if p.key == key), None)
