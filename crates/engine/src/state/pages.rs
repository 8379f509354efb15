//! The page model: how many bytes a row takes, how rows pack into 8 KB pages, how deep a
//! B-tree is, and how many logical reads (STATISTICS IO) an access costs (semantics.md A12).
//!
//! Pure functions over sizes: no storage knowledge. Sources, cited as in semantics.md:
//! - page layout: "Pages and extents architecture guide" (8,192-byte page, 96-byte header,
//!   2-byte slot per row, 8,060-byte in-row maximum, 24-byte row-overflow pointer);
//! - sizes: "Estimate the size of a clustered index" / "... of a nonclustered index";
//! - reads: "SET STATISTICS IO" (logical reads = pages read at every level) and the counts
//!   observed in A12 (point seek = depth; scan ≈ leaf pages + the way down; lookup = depth).
//!
//! All arithmetic saturates: no input can panic or wrap.

use std::fmt;

/// A row's slot number in its table.
pub type RowId = usize;

/// Bytes of a page.
pub const PAGE_BYTES: u32 = 8_192;
/// Bytes of a page available to rows and their slots (8,192 − 96-byte header).
pub const USABLE_PAGE_BYTES: u32 = 8_096;
/// Each row's entry in the page's slot (row-offset) array.
pub const SLOT_BYTES: u32 = 2;
/// Largest in-row record; wider variable columns move to ROW_OVERFLOW_DATA.
pub const MAX_IN_ROW_BYTES: u32 = 8_060;
/// What a variable column moved off-row leaves in the row.
pub const OVERFLOW_POINTER_BYTES: u32 = 24;
/// Data-row header: status bits A and B, offset of the end of the fixed data.
pub const DATA_ROW_HEADER_BYTES: u32 = 4;
/// Index-row header.
pub const INDEX_ROW_HEADER_BYTES: u32 = 1;
/// Child-page pointer of a non-leaf index row (file id + page id).
pub const CHILD_POINTER_BYTES: u32 = 6;
/// Largest in-row value of a (max) type; larger values are stored off-row.
pub const MAX_TYPE_IN_ROW_BYTES: u32 = 8_000;

/// SQL Server column types, as far as their storage size matters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ColType {
    TinyInt,
    SmallInt,
    Int,
    BigInt,
    /// Up to 8 bit columns of a row share one byte: see [`fixed_data_size`].
    Bit,
    Decimal {
        p: u8,
        s: u8,
    },
    /// float(n), n = mantissa bits (float = float(53)).
    Float(u8),
    Real,
    Money,
    SmallMoney,
    Char(u32),
    VarChar(u32),
    VarCharMax,
    NChar(u32),
    NVarChar(u32),
    NVarCharMax,
    Binary(u32),
    VarBinary(u32),
    VarBinaryMax,
    DateTime2(u8),
    DateTime,
    SmallDateTime,
    Date,
    Time(u8),
    DateTimeOffset(u8),
    UniqueIdentifier,
}

/// The size class of a fractional-seconds precision: p < 3, p 3–4, p > 4.
fn precision_bytes(p: u8, short: u32) -> u32 {
    match p {
        0..=2 => short,
        3 | 4 => short + 1,
        _ => short + 2,
    }
}

impl ColType {
    /// Bytes a fixed-width column takes in every row (NULL or not); `None` for variable-width
    /// types. A lone bit column takes 1 byte; [`fixed_data_size`] packs several.
    pub fn fixed_size(self) -> Option<u32> {
        use ColType::*;
        Some(match self {
            TinyInt | Bit => 1,
            SmallInt => 2,
            Int | Real | SmallMoney | SmallDateTime => 4,
            BigInt | Money | DateTime => 8,
            Decimal { p, .. } => match p {
                0..=9 => 5,
                10..=19 => 9,
                20..=28 => 13,
                _ => 17,
            },
            Float(n) => {
                if n <= 24 {
                    4
                } else {
                    8
                }
            }
            Char(n) | Binary(n) => n,
            NChar(n) => n.saturating_mul(2),
            DateTime2(p) => precision_bytes(p, 6),
            Time(p) => precision_bytes(p, 3),
            DateTimeOffset(p) => precision_bytes(p, 8),
            Date => 3,
            UniqueIdentifier => 16,
            VarChar(_) | VarCharMax | NVarChar(_) | NVarCharMax | VarBinary(_) | VarBinaryMax => {
                return None
            }
        })
    }

    pub fn is_variable(self) -> bool {
        self.fixed_size().is_none()
    }

    /// Most bytes the column can take in a row: the fixed size, or the declared maximum of a
    /// variable column ((max) types: [`MAX_TYPE_IN_ROW_BYTES`]).
    pub fn max_size(self) -> u32 {
        match self {
            ColType::VarChar(n) | ColType::VarBinary(n) => n,
            ColType::NVarChar(n) => n.saturating_mul(2),
            ColType::VarCharMax | ColType::NVarCharMax | ColType::VarBinaryMax => {
                MAX_TYPE_IN_ROW_BYTES
            }
            fixed => fixed.fixed_size().unwrap_or(0),
        }
    }

    /// Bytes a text value takes in this column: 1 per character for (var)char (a code-page
    /// collation), 2 per UTF-16 code unit for n(var)char, the UTF-8 length for binary types.
    /// Bounded types are capped at their declared size (a longer value fails with a
    /// truncation error before it is stored); fixed types always take their fixed size.
    pub fn text_bytes(self, text: &str) -> u32 {
        let chars = u32::try_from(text.chars().count()).unwrap_or(u32::MAX);
        let utf16 = u32::try_from(text.encode_utf16().count())
            .unwrap_or(u32::MAX)
            .saturating_mul(2);
        let bytes = u32::try_from(text.len()).unwrap_or(u32::MAX);
        match self {
            ColType::VarChar(n) => chars.min(n),
            ColType::NVarChar(n) => utf16.min(n.saturating_mul(2)),
            ColType::VarBinary(n) => bytes.min(n),
            ColType::VarCharMax => chars,
            ColType::NVarCharMax => utf16,
            ColType::VarBinaryMax => bytes,
            fixed => fixed.fixed_size().unwrap_or(0),
        }
    }
}

impl fmt::Display for ColType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use ColType::*;
        match self {
            TinyInt => f.write_str("tinyint"),
            SmallInt => f.write_str("smallint"),
            Int => f.write_str("int"),
            BigInt => f.write_str("bigint"),
            Bit => f.write_str("bit"),
            Decimal { p, s } => write!(f, "decimal({p},{s})"),
            Float(n) => write!(f, "float({n})"),
            Real => f.write_str("real"),
            Money => f.write_str("money"),
            SmallMoney => f.write_str("smallmoney"),
            Char(n) => write!(f, "char({n})"),
            VarChar(n) => write!(f, "varchar({n})"),
            VarCharMax => f.write_str("varchar(max)"),
            NChar(n) => write!(f, "nchar({n})"),
            NVarChar(n) => write!(f, "nvarchar({n})"),
            NVarCharMax => f.write_str("nvarchar(max)"),
            Binary(n) => write!(f, "binary({n})"),
            VarBinary(n) => write!(f, "varbinary({n})"),
            VarBinaryMax => f.write_str("varbinary(max)"),
            DateTime2(p) => write!(f, "datetime2({p})"),
            DateTime => f.write_str("datetime"),
            SmallDateTime => f.write_str("smalldatetime"),
            Date => f.write_str("date"),
            Time(p) => write!(f, "time({p})"),
            DateTimeOffset(p) => write!(f, "datetimeoffset({p})"),
            UniqueIdentifier => f.write_str("uniqueidentifier"),
        }
    }
}

/// One column of one row as stored: its type and, for a variable-width column, the actual
/// bytes of its value (`None` = NULL, 0 bytes). Ignored for fixed-width columns, which take
/// their declared size even when NULL.
pub type StoredCol = (ColType, Option<u32>);

/// A heap's row locator (RID: file 2 + page 4 + slot 2 bytes) as a locator column.
pub const RID_LOCATOR: StoredCol = (ColType::Binary(8), None);

/// Fixed_Data_Size: the fixed-width columns, bit columns packed 8 to a byte.
pub fn fixed_data_size(types: impl IntoIterator<Item = ColType>) -> u32 {
    let mut bytes = 0u32;
    let mut bits = 0u32;
    for t in types {
        if t == ColType::Bit {
            bits = bits.saturating_add(1);
        } else {
            bytes = bytes.saturating_add(t.fixed_size().unwrap_or(0));
        }
    }
    bytes.saturating_add(bits.div_ceil(8))
}

/// Null_Bitmap = 2 + ((Num_Cols + 7) / 8).
pub fn null_bitmap_size(num_cols: u32) -> u32 {
    2u32.saturating_add(num_cols.saturating_add(7) / 8)
}

/// Variable_Data_Size = 2 + 2 × Num_Variable_Cols + the stored bytes; 0 with no variable
/// columns. (The doc's estimate uses the declared maximum; rows store actual lengths.)
fn variable_data_size(lens: &[u32]) -> u32 {
    if lens.is_empty() {
        return 0;
    }
    let n = u32::try_from(lens.len()).unwrap_or(u32::MAX);
    lens.iter()
        .fold(n.saturating_mul(2).saturating_add(2), |acc, &l| {
            acc.saturating_add(l)
        })
}

fn split(columns: &[StoredCol]) -> (u32, Vec<u32>) {
    let fixed = fixed_data_size(columns.iter().filter(|c| !c.0.is_variable()).map(|c| c.0));
    let var = columns
        .iter()
        .filter(|c| c.0.is_variable())
        .map(|c| c.1.unwrap_or(0))
        .collect();
    (fixed, var)
}

/// The bytes of one data row (heap row or clustered-index leaf row):
/// Row_Size = Fixed_Data_Size + Variable_Data_Size + Null_Bitmap + 4 (row header).
/// A row over [`MAX_IN_ROW_BYTES`] moves its widest variable columns off-row, one at a time,
/// each leaving a 24-byte pointer, as SQL Server does with ROW_OVERFLOW_DATA.
pub fn row_size(columns: &[StoredCol]) -> u32 {
    // Most rows fit in-row: sum their variable columns without building the list that
    // moving columns off-row needs.
    let mut n = 0u32;
    let mut stored = 0u32;
    for c in columns.iter().filter(|c| c.0.is_variable()) {
        n = n.saturating_add(1);
        stored = stored.saturating_add(c.1.unwrap_or(0));
    }
    let var_size = if n == 0 {
        0
    } else {
        n.saturating_mul(2).saturating_add(2).saturating_add(stored)
    };
    let fixed = fixed_data_size(columns.iter().filter(|c| !c.0.is_variable()).map(|c| c.0));
    let num_cols = u32::try_from(columns.len()).unwrap_or(u32::MAX);
    let size = fixed
        .saturating_add(null_bitmap_size(num_cols))
        .saturating_add(DATA_ROW_HEADER_BYTES)
        .saturating_add(var_size);
    if size <= MAX_IN_ROW_BYTES {
        return size;
    }
    let (fixed, mut var) = split(columns);
    let num_cols = u32::try_from(columns.len()).unwrap_or(u32::MAX);
    let base = fixed
        .saturating_add(null_bitmap_size(num_cols))
        .saturating_add(DATA_ROW_HEADER_BYTES);
    let mut size = base.saturating_add(variable_data_size(&var));
    // Bounded: each round shrinks one distinct column to the pointer size.
    while size > MAX_IN_ROW_BYTES {
        let widest = var
            .iter()
            .enumerate()
            .filter(|(_, &l)| l > OVERFLOW_POINTER_BYTES)
            .max_by_key(|&(i, &l)| (l, std::cmp::Reverse(i)));
        let Some((i, _)) = widest else { break };
        var[i] = OVERFLOW_POINTER_BYTES;
        size = base.saturating_add(variable_data_size(&var));
    }
    size
}

/// The doc's estimate for a row whose variable columns are all full (Max_Var_Size).
pub fn max_row_size(types: &[ColType]) -> u32 {
    let columns: Vec<StoredCol> = types.iter().map(|&t| (t, Some(t.max_size()))).collect();
    row_size(&columns)
}

/// Rows_Per_Page = floor(8096 / (Row_Size + 2)), at least 1 (a row always gets a page).
pub fn rows_per_page(row_size: u32) -> u32 {
    (USABLE_PAGE_BYTES / row_size.saturating_add(SLOT_BYTES)).max(1)
}

/// Packs rows, in key order, into leaf pages of 8,096 usable bytes, each row also taking a
/// 2-byte slot; a row that does not fit starts a new page (pages are full, as after
/// sequential inserts or a rebuild at fill factor 100).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LeafPacker {
    pages: u32,
    used: u32,
}

impl LeafPacker {
    pub fn new() -> LeafPacker {
        LeafPacker::default()
    }

    /// Places the next row; returns its 0-based page number.
    pub fn push(&mut self, row_size: u32) -> u32 {
        let need = row_size.saturating_add(SLOT_BYTES).min(USABLE_PAGE_BYTES);
        if self.pages == 0 || self.used.saturating_add(need) > USABLE_PAGE_BYTES {
            self.pages = self.pages.saturating_add(1);
            self.used = 0;
        }
        self.used += need;
        self.pages - 1
    }

    /// Pages used so far (0 before the first row: an empty index has no pages).
    pub fn pages(&self) -> u32 {
        self.pages
    }
}

/// Leaf pages for rows of these sizes, in key order (see [`LeafPacker`]).
pub fn leaf_pages(row_sizes: impl IntoIterator<Item = u32>) -> u32 {
    let mut packer = LeafPacker::new();
    for size in row_sizes {
        packer.push(size);
    }
    packer.pages()
}

/// A non-leaf index row: Index_Row_Size = key bytes (+ variable-key overhead 2 + 2n and the
/// stored lengths) + Index_Null_Bitmap (only when a key column is nullable) + 1 (header) +
/// 6 (child page pointer). A non-unique nonclustered index carries its row locator in the
/// key, so include the locator columns in `key` then.
pub fn nonleaf_row_size(key: &[StoredCol], nullable_key: bool) -> u32 {
    let (fixed, var) = split(key);
    let num_cols = u32::try_from(key.len()).unwrap_or(u32::MAX);
    let bitmap = if nullable_key {
        null_bitmap_size(num_cols)
    } else {
        0
    };
    fixed
        .saturating_add(variable_data_size(&var))
        .saturating_add(bitmap)
        .saturating_add(INDEX_ROW_HEADER_BYTES)
        .saturating_add(CHILD_POINTER_BYTES)
}

/// A nonclustered leaf row: key columns + row locator + 1 header byte + null bitmap +
/// variable overhead. `locator` is the clustered key columns NOT already in `key` (none
/// when the key contains them), or [`RID_LOCATOR`] on a heap. The null bitmap is always
/// there since SQL Server 2012, even when no column is nullable (sqlrider.net, "Nonclustered
/// index leaf records always contain a null bitmap – since SQL 2012"); it is what makes
/// A12's 500,000-row int index come out at 1,120 reads rather than ~930.
pub fn nonclustered_leaf_row_size(key: &[StoredCol], locator: &[StoredCol]) -> u32 {
    let columns: Vec<StoredCol> = key.iter().chain(locator).copied().collect();
    let (fixed, var) = split(&columns);
    let num_cols = u32::try_from(columns.len()).unwrap_or(u32::MAX);
    fixed
        .saturating_add(variable_data_size(&var))
        .saturating_add(null_bitmap_size(num_cols))
        .saturating_add(INDEX_ROW_HEADER_BYTES)
}

/// Index_Rows_Per_Page = floor(8096 / (Index_Row_Size + 2)), at least 2 so that every
/// non-leaf level is smaller than the one below (the tree always ends in one root).
pub fn index_rows_per_page(index_row_size: u32) -> u32 {
    (USABLE_PAGE_BYTES / index_row_size.saturating_add(SLOT_BYTES)).max(2)
}

/// Pages per level, leaf level first, root last: each non-leaf level has
/// ceil(pages below / index rows per page) pages, until one page. Empty for no leaf pages.
pub fn btree_levels(leaf_pages: u32, index_row_size: u32) -> Vec<u32> {
    let per_page = index_rows_per_page(index_row_size);
    let mut levels = Vec::new();
    let mut pages = leaf_pages;
    if pages == 0 {
        return levels;
    }
    levels.push(pages);
    // At most 32 rounds: each divides by at least 2.
    while pages > 1 {
        pages = pages.div_ceil(per_page);
        levels.push(pages);
    }
    levels
}

/// Levels of the B-tree, leaf included: 1 when the single leaf page is the root; 0 for an
/// index with no pages.
pub fn btree_depth(leaf_pages: u32, index_row_size: u32) -> u32 {
    // Counted as `btree_levels` lists them, without the list: every scan asks.
    let per_page = index_rows_per_page(index_row_size);
    let mut pages = leaf_pages;
    let mut depth = u32::from(pages > 0);
    while pages > 1 {
        pages = pages.div_ceil(per_page);
        depth += 1;
    }
    depth
}

/// A point seek reads one page per level: root, intermediates, leaf (A12: 3 on a 3-level
/// index, Gail Shaw's example).
pub fn seek_reads(depth: u32) -> u32 {
    depth
}

/// A range scan walks down once (depth − 1 non-leaf pages), then reads each leaf page it
/// touches.
pub fn range_scan_reads(depth: u32, leaf_pages_touched: u32) -> u32 {
    depth.saturating_sub(1).saturating_add(leaf_pages_touched)
}

/// A full (ordered) scan: the way down to the first leaf plus every leaf page (A12: ≈ leaf
/// pages; 1,120 for the 500,000-row int index whether written as a scan or as `id > 0`).
pub fn full_scan_reads(depth: u32, leaf_pages: u32) -> u32 {
    range_scan_reads(depth, leaf_pages)
}

/// Each key lookup is a seek into the clustered index: its depth, per row (A12: 25 lookups
/// into a 3-level index = 75 reads, Itzik Ben-Gan's example).
pub fn key_lookup_reads(clustered_depth: u32) -> u32 {
    seek_reads(clustered_depth)
}

#[cfg(test)]
mod tests {
    use super::ColType::*;
    use super::*;

    const INT_KEY: [StoredCol; 1] = [(Int, None)];

    #[test]
    fn column_sizes() {
        assert_eq!(DateTime2(0).fixed_size(), Some(6));
        assert_eq!(DateTime2(2).fixed_size(), Some(6));
        assert_eq!(DateTime2(3).fixed_size(), Some(7));
        assert_eq!(DateTime2(4).fixed_size(), Some(7));
        assert_eq!(DateTime2(7).fixed_size(), Some(8));
        assert_eq!(Decimal { p: 9, s: 2 }.fixed_size(), Some(5));
        assert_eq!(Decimal { p: 18, s: 2 }.fixed_size(), Some(9));
        assert_eq!(Decimal { p: 38, s: 0 }.fixed_size(), Some(17));
        assert_eq!(NChar(10).fixed_size(), Some(20));
        assert_eq!(UniqueIdentifier.fixed_size(), Some(16));
        assert_eq!(NVarChar(50).fixed_size(), None);
        assert_eq!(NVarChar(50).max_size(), 100);
        assert_eq!(NVarChar(50).text_bytes("task 00001"), 20);
        assert_eq!(VarChar(20).text_bytes("done"), 4);
        assert_eq!(VarChar(3).text_bytes("in_progress"), 3);
        assert_eq!(NVarChar(10).text_bytes("zażółć"), 12);
        assert_eq!(Int.text_bytes("whatever"), 4);
        // Nine bit columns need two bytes; bits do not mix with other columns.
        assert_eq!(fixed_data_size([Bit; 9]), 2);
        assert_eq!(fixed_data_size([Bit, Int, Bit, TinyInt]), 6);
        assert_eq!(DateTime2(3).to_string(), "datetime2(3)");
    }

    #[test]
    fn row_size_formula() {
        // One int: 4 + null bitmap 3 + header 4 (the 11-byte record DBCC PAGE shows).
        assert_eq!(row_size(&INT_KEY), 11);
        // Variable columns count their actual bytes; NULL ones count 0 but keep their slot.
        let row = [(Int, None), (VarChar(30), Some(2)), (VarChar(30), None)];
        assert_eq!(row_size(&row), 4 + (2 + 2 * 2 + 2) + 3 + 4);
        assert_eq!(
            max_row_size(&[Int, VarChar(30), VarChar(30)]),
            4 + (2 + 2 * 2 + 60) + 3 + 4
        );
        // Too wide for a row: the widest variable column goes off-row.
        let wide = [
            (Int, None),
            (VarChar(8000), Some(8000)),
            (VarChar(100), Some(100)),
        ];
        assert_eq!(row_size(&wide), 4 + (2 + 4 + 24 + 100) + 3 + 4);
        assert!(row_size(&[(VarCharMax, Some(u32::MAX)); 3]) <= MAX_IN_ROW_BYTES);
    }

    #[test]
    fn packing() {
        assert_eq!(rows_per_page(100), 79);
        assert_eq!(rows_per_page(u32::MAX), 1);
        assert_eq!(leaf_pages(std::iter::empty()), 0);
        assert_eq!(leaf_pages(std::iter::repeat_n(100, 79)), 1);
        assert_eq!(leaf_pages(std::iter::repeat_n(100, 80)), 2);
        // A row that does not fit the rest of a page starts a new one.
        assert_eq!(leaf_pages([4000, 4000, 100]), 2);
        assert_eq!(leaf_pages([4000, 4100]), 2);
        assert_eq!(leaf_pages([u32::MAX, 1]), 2);
        let mut p = LeafPacker::new();
        let pages: Vec<u32> = (0..160).map(|_| p.push(100)).collect();
        assert_eq!((pages[78], pages[79], pages[159]), (0, 1, 2));
    }

    /// semantics.md A12: int key, 79 rows per leaf page, 622 index rows per non-leaf page.
    #[test]
    fn one_million_int_rows_make_a_three_level_tree() {
        let index_row = nonleaf_row_size(&INT_KEY, false);
        assert_eq!(index_row, 11);
        assert_eq!(index_rows_per_page(index_row), 622);
        let leaves = leaf_pages(std::iter::repeat_n(100, 1_000_000));
        assert_eq!(leaves, 12_659);
        assert_eq!(btree_levels(leaves, index_row), [12_659, 21, 1]);
        assert_eq!(btree_depth(leaves, index_row), 3);
        // A12's thresholds: ≤ 79 rows → 1 level; ≤ 79 × 622 → 2; ≤ 79 × 622² → 3; beyond → 4.
        let depth_for = |rows: u32| btree_depth(rows.div_ceil(79), index_row);
        assert_eq!((depth_for(79), depth_for(80)), (1, 2));
        assert_eq!((depth_for(79 * 622), depth_for(79 * 622 + 1)), (2, 3));
        assert_eq!(
            (depth_for(79 * 622 * 622), depth_for(79 * 622 * 622 + 1)),
            (3, 4)
        );
        assert_eq!(btree_depth(0, index_row), 0);
        assert_eq!(btree_depth(u32::MAX, u32::MAX), 33);
    }

    /// A12, Gail Shaw's example: a nonclustered int index on a 500,000-row heap; scan and
    /// `id > 0` both cost 1,120 reads, a point seek 3.
    #[test]
    fn half_a_million_row_int_index_scan() {
        let leaf_row = nonclustered_leaf_row_size(&INT_KEY, &[RID_LOCATOR]);
        assert_eq!(leaf_row, 1 + 4 + 8 + 3);
        let leaves = leaf_pages(std::iter::repeat_n(leaf_row, 500_000));
        // Non-unique: the RID is part of the key at the upper levels.
        let depth = btree_depth(leaves, nonleaf_row_size(&[(Int, None), RID_LOCATOR], false));
        assert_eq!(depth, 3);
        assert_eq!(seek_reads(depth), 3);
        let scan = full_scan_reads(depth, leaves);
        assert_eq!((leaves, scan), (1_114, 1_116));
        assert!(
            (1_100..=1_140).contains(&scan),
            "measured 1,120, got {scan}"
        );
    }

    #[test]
    fn read_counts() {
        assert_eq!(seek_reads(3), 3);
        assert_eq!(range_scan_reads(3, 1), 3);
        assert_eq!(range_scan_reads(3, 4), 6);
        assert_eq!(full_scan_reads(1, 1), 1);
        assert_eq!(full_scan_reads(0, 0), 0);
        // Itzik Ben-Gan's example: 25 lookups into a 3-level clustered index.
        assert_eq!(25 * key_lookup_reads(3), 75);
    }

    /// A row of the Q1 task table: id int, name nvarchar(50), rank tinyint, active bit,
    /// status varchar(20), owner varchar(30) NULL, activated datetime2(3), taken datetime2(3) NULL.
    fn task_row(id: u32, status: &str, owner: Option<&str>) -> Vec<StoredCol> {
        let name = format!("task {id:05}");
        vec![
            (Int, None),
            (NVarChar(50), Some(NVarChar(50).text_bytes(&name))),
            (TinyInt, None),
            (Bit, None),
            (VarChar(20), Some(VarChar(20).text_bytes(status))),
            (VarChar(30), owner.map(|o| VarChar(30).text_bytes(o))),
            (DateTime2(3), None),
            (DateTime2(3), None),
        ]
    }

    /// SCENARIOS.md Q12: 20,000 finished tasks and 40 waiting. Without the filtered index a
    /// claim scans the whole clustered index; the seed measured 156–192 logical reads.
    #[test]
    fn seed_task_table_pages() {
        let done = row_size(&task_row(1, "done", Some("p1")));
        let new = row_size(&task_row(20_001, "new", None));
        // fixed 4+1+1(bit)+7+7 = 20, bitmap 2+1 = 3, variable 2+3×2+(20+4+2) = 34, header 4.
        assert_eq!((done, new), (61, 58));
        assert_eq!(rows_per_page(done), 128);
        let sizes = (1..=20_040u32).map(|id| {
            let (status, owner) = if id <= 20_000 {
                ("done", Some("p1"))
            } else {
                ("new", None)
            };
            row_size(&task_row(id, status, owner))
        });
        let leaves = leaf_pages(sizes);
        let depth = btree_depth(leaves, nonleaf_row_size(&INT_KEY, false));
        let scan = full_scan_reads(depth, leaves);
        println!("task table: {leaves} leaf pages, depth {depth}, full scan {scan} logical reads");
        assert_eq!((leaves, depth, scan), (157, 2, 158));
        assert!((156..=192).contains(&scan));

        // The filtered index (rank DESC, activated, id) WHERE active = 1 AND status = 'new':
        // 40 rows; the clustered key id is already in the key, so no extra locator.
        let key = [(TinyInt, None), (DateTime2(3), None), (Int, None)];
        let leaf_row = nonclustered_leaf_row_size(&key, &[]);
        assert_eq!(leaf_row, 1 + 1 + 7 + 4 + 3);
        let f_leaves = leaf_pages(std::iter::repeat_n(leaf_row, 40));
        let f_depth = btree_depth(f_leaves, nonleaf_row_size(&key, false));
        println!("filtered index: {leaf_row}-byte rows, {f_leaves} leaf page(s), depth {f_depth}");
        assert_eq!((f_leaves, f_depth), (1, 1));
        // Seek on the filtered index + one key lookup into the clustered index.
        assert_eq!(seek_reads(f_depth) + key_lookup_reads(depth), 3);
        // Without the index the reads grow with the table (Q12).
        let bigger = leaf_pages(std::iter::repeat_n(done, 40_040));
        assert!(full_scan_reads(btree_depth(bigger, 11), bigger) > scan * 19 / 10);
    }
}
