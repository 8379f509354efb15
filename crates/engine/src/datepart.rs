//! DATEADD, DATEDIFF, DATEPART and DATENAME over datetime values (µs since 1970), with SQL
//! Server's rules: DATEDIFF counts the boundaries of the part crossed between two instants,
//! DATEADD of months clamps the day to the month's last, weeks start on Sunday (DATEFIRST
//! 7, us_english). Times have microsecond resolution here, so nanoseconds are whole
//! microseconds times 1000 and DATEADD rounds nanoseconds to the nearest microsecond.

use crate::error::SqlError;
use crate::value::{civil_from_days, days_from_civil, in_datetime_range};

const DAY_US: i64 = 86_400_000_000;

/// A date part keyword of DATEADD and friends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum DatePart {
    Year,
    Quarter,
    Month,
    DayOfYear,
    Day,
    Week,
    Weekday,
    Hour,
    Minute,
    Second,
    Millisecond,
    Microsecond,
    Nanosecond,
}

impl DatePart {
    /// The part a keyword or its abbreviation names (case-insensitive), or error 155 naming
    /// the function as SQL Server does (`'foo' is not a recognized dateadd option.`).
    pub(crate) fn parse(word: &str, function: &str) -> Result<DatePart, SqlError> {
        use DatePart::*;
        Ok(match word.to_ascii_lowercase().as_str() {
            "year" | "yy" | "yyyy" => Year,
            "quarter" | "qq" | "q" => Quarter,
            "month" | "mm" | "m" => Month,
            "dayofyear" | "dy" | "y" => DayOfYear,
            "day" | "dd" | "d" => Day,
            "week" | "wk" | "ww" => Week,
            "weekday" | "dw" | "w" => Weekday,
            "hour" | "hh" => Hour,
            "minute" | "mi" | "n" => Minute,
            "second" | "ss" | "s" => Second,
            "millisecond" | "ms" => Millisecond,
            "microsecond" | "mcs" => Microsecond,
            "nanosecond" | "ns" => Nanosecond,
            _ => {
                return Err(SqlError::generic(
                    155,
                    15,
                    format!(
                        "'{word}' is not a recognized {} option.",
                        function.to_ascii_lowercase()
                    ),
                ))
            }
        })
    }

    /// Microseconds per unit for the parts of fixed length (day and shorter).
    fn fixed_us(self) -> Option<i64> {
        use DatePart::*;
        match self {
            DayOfYear | Day | Weekday => Some(DAY_US),
            Week => Some(7 * DAY_US),
            Hour => Some(3_600_000_000),
            Minute => Some(60_000_000),
            Second => Some(1_000_000),
            Millisecond => Some(1_000),
            Microsecond => Some(1),
            Year | Quarter | Month | Nanosecond => None,
        }
    }
}

/// Year, month (1–12), day (1–31) of an instant.
fn ymd(t: i64) -> (i64, i64, i64) {
    civil_from_days(t.div_euclid(DAY_US))
}

/// `DATEADD(part, n, t)`: error 517 when the result leaves datetime2's range.
pub(crate) fn date_add(part: DatePart, n: i64, t: i64) -> Result<i64, SqlError> {
    let months_per = match part {
        DatePart::Year => Some(12),
        DatePart::Quarter => Some(3),
        DatePart::Month => Some(1),
        _ => None,
    };
    let moved = if let Some(per) = months_per {
        add_months(t, n.checked_mul(per))
    } else if part == DatePart::Nanosecond {
        // Rounded to the nearest microsecond, half away from zero.
        let us = n / 1000 + (n % 1000) / 500;
        t.checked_add(us)
    } else {
        let unit = part.fixed_us().unwrap_or(1);
        n.checked_mul(unit).and_then(|d| t.checked_add(d))
    };
    moved
        .filter(|&m| in_datetime_range(m))
        .ok_or_else(SqlError::datetime_overflow)
}

/// Moves an instant by whole months; a day past the new month's end becomes its last day
/// (`DATEADD(month, 1, '2026-01-31')` is 2026-02-28).
fn add_months(t: i64, months: Option<i64>) -> Option<i64> {
    let (y, m, d) = ymd(t);
    let total = (y.checked_mul(12)? + m - 1).checked_add(months?)?;
    if !(0..=12 * 10_000).contains(&total) {
        return None;
    }
    let (ny, nm) = (total.div_euclid(12), total.rem_euclid(12) + 1);
    let nd = d.min(days_in_month(ny, nm));
    Some(days_from_civil(ny, nm, nd) * DAY_US + t.rem_euclid(DAY_US))
}

fn days_in_month(y: i64, m: i64) -> i64 {
    let (ny, nm) = if m == 12 { (y + 1, 1) } else { (y, m + 1) };
    days_from_civil(ny, nm, 1) - days_from_civil(y, m, 1)
}

/// `DATEDIFF(part, a, b)`: the part's boundaries crossed going from `a` to `b` (so
/// `DATEDIFF(year, '2025-12-31', '2026-01-01')` is 1); error 535 past int's range.
pub(crate) fn date_diff(part: DatePart, a: i64, b: i64) -> Result<i64, SqlError> {
    let months = |t: i64| {
        let (y, m, _) = ymd(t);
        y * 12 + m - 1
    };
    let n = match part {
        DatePart::Year => ymd(b).0 - ymd(a).0,
        DatePart::Quarter => months(b).div_euclid(3) - months(a).div_euclid(3),
        DatePart::Month => months(b) - months(a),
        // Weeks begin on Sunday whatever DATEFIRST says; 1970-01-04 was a Sunday.
        DatePart::Week => sunday_weeks(b) - sunday_weeks(a),
        DatePart::Nanosecond => (b as i128 - a as i128)
            .checked_mul(1000)
            .and_then(|x| i64::try_from(x).ok())
            .unwrap_or(i64::MAX),
        _ => {
            let unit = part.fixed_us().unwrap_or(1);
            b.div_euclid(unit) - a.div_euclid(unit)
        }
    };
    if i32::try_from(n).is_err() {
        return Err(SqlError::generic(
            535,
            16,
            "The datediff function resulted in an overflow. The number of dateparts separating two date/time instances is too large. Try to use datediff with a less precise datepart.",
        ));
    }
    Ok(n)
}

fn sunday_weeks(t: i64) -> i64 {
    (t.div_euclid(DAY_US) + 4).div_euclid(7)
}

/// Day of the week, 1 = Sunday … 7 = Saturday (DATEFIRST 7).
fn weekday(t: i64) -> i64 {
    // 1970-01-01 was a Thursday (5).
    (t.div_euclid(DAY_US) + 4).rem_euclid(7) + 1
}

/// `DATEPART(part, t)` as an integer.
pub(crate) fn date_part(part: DatePart, t: i64) -> i64 {
    let (y, m, d) = ymd(t);
    let in_day = t.rem_euclid(DAY_US);
    let day_of_year = t.div_euclid(DAY_US) - days_from_civil(y, 1, 1) + 1;
    match part {
        DatePart::Year => y,
        DatePart::Quarter => (m - 1) / 3 + 1,
        DatePart::Month => m,
        DatePart::DayOfYear => day_of_year,
        DatePart::Day => d,
        // Week 1 holds January 1st; each week starts on Sunday.
        DatePart::Week => {
            let jan1 = days_from_civil(y, 1, 1) * DAY_US;
            (day_of_year - 1 + weekday(jan1) - 1) / 7 + 1
        }
        DatePart::Weekday => weekday(t),
        DatePart::Hour => in_day / 3_600_000_000,
        DatePart::Minute => in_day / 60_000_000 % 60,
        DatePart::Second => in_day / 1_000_000 % 60,
        DatePart::Millisecond => in_day % 1_000_000 / 1_000,
        DatePart::Microsecond => in_day % 1_000_000,
        DatePart::Nanosecond => in_day % 1_000_000 * 1_000,
    }
}

const MONTHS: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];
const WEEKDAYS: [&str; 7] = [
    "Sunday",
    "Monday",
    "Tuesday",
    "Wednesday",
    "Thursday",
    "Friday",
    "Saturday",
];

/// `DATENAME(part, t)`: month and weekday by name (us_english), the rest as DATEPART's
/// number in text.
pub(crate) fn date_name(part: DatePart, t: i64) -> String {
    let n = date_part(part, t);
    match part {
        DatePart::Month => MONTHS[(n - 1) as usize].to_string(),
        DatePart::Weekday => WEEKDAYS[(n - 1) as usize].to_string(),
        _ => n.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::parse_datetime;

    fn t(s: &str) -> i64 {
        parse_datetime(s).unwrap()
    }

    #[test]
    fn datediff_counts_boundaries_crossed() {
        let (a, b) = (t("2025-12-31 23:59:59.999"), t("2026-01-01 00:00:00"));
        for (part, want) in [
            (DatePart::Year, 1),
            (DatePart::Quarter, 1),
            (DatePart::Month, 1),
            (DatePart::Day, 1),
            (DatePart::Hour, 1),
            (DatePart::Second, 1),
            (DatePart::Millisecond, 1),
            (DatePart::Microsecond, 1_000),
            (DatePart::Nanosecond, 1_000_000),
        ] {
            assert_eq!(date_diff(part, a, b).unwrap(), want, "{part:?}");
        }
        // 2026-01-03 is a Saturday, 2026-01-04 a Sunday.
        let sat = t("2026-01-03");
        assert_eq!(date_diff(DatePart::Week, sat, t("2026-01-04")).unwrap(), 1);
        assert_eq!(date_diff(DatePart::Week, t("2026-01-04"), sat).unwrap(), -1);
        assert_eq!(
            date_diff(DatePart::Week, t("2026-01-04"), t("2026-01-10")).unwrap(),
            0
        );
        let far = date_diff(DatePart::Nanosecond, t("2000-01-01"), t("2026-01-01"));
        assert_eq!(far.unwrap_err().number, 535);
    }

    #[test]
    fn dateadd_of_months_clamps_the_day() {
        let jan31 = t("2024-01-31 10:00:00");
        let show = |us| crate::value::format_datetime(us, 0);
        assert_eq!(
            show(date_add(DatePart::Month, 1, jan31).unwrap()),
            "2024-02-29 10:00:00"
        );
        assert_eq!(
            show(date_add(DatePart::Year, 1, t("2024-02-29")).unwrap()),
            "2025-02-28 00:00:00"
        );
        assert_eq!(
            show(date_add(DatePart::Quarter, -1, jan31).unwrap()),
            "2023-10-31 10:00:00"
        );
        assert_eq!(
            date_add(DatePart::Nanosecond, 1_499, 0).unwrap(),
            1,
            "1499 ns rounds to 1 µs"
        );
        assert_eq!(
            date_add(DatePart::Year, 8000, jan31).unwrap_err().number,
            517
        );
    }

    #[test]
    fn datepart_and_datename_follow_us_english() {
        // 2026-01-05 was a Monday.
        let x = t("2026-01-05 09:08:07.123456");
        assert_eq!(date_part(DatePart::Weekday, x), 2);
        assert_eq!(date_name(DatePart::Weekday, x), "Monday");
        assert_eq!(date_name(DatePart::Month, x), "January");
        assert_eq!(date_part(DatePart::Week, x), 2);
        assert_eq!(date_part(DatePart::DayOfYear, x), 5);
        assert_eq!(date_part(DatePart::Millisecond, x), 123);
        assert_eq!(date_part(DatePart::Microsecond, x), 123_456);
        assert_eq!(date_part(DatePart::Nanosecond, x), 123_456_000);
        assert_eq!(DatePart::parse("YYYY", "DATEPART").unwrap(), DatePart::Year);
        assert_eq!(
            DatePart::parse("fortnight", "DATEADD").unwrap_err().number,
            155
        );
    }
}
