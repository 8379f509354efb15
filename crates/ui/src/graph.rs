//! Where the wait-for graph puts its sessions: a circle for a few, a grid for many,
//! each node a pill as wide as its name, and a viewBox around all of them, so no name
//! is ever cut off at the drawing's edge however many sessions a lesson has.

/// Height of a node's pill (SVG units; the text is 13 units high).
pub const NODE_H: f64 = 30.0;
/// Sessions up to this many sit on a circle; more go in a grid.
const CIRCLE_MAX: usize = 8;
const GAP: f64 = 14.0;
const MARGIN: f64 = 6.0;

#[derive(Clone, Debug, PartialEq)]
pub struct Node {
    /// The pill's centre.
    pub x: f64,
    pub y: f64,
    /// The pill's width.
    pub w: f64,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Layout {
    pub nodes: Vec<Node>,
    /// `min_x min_y width height` for the SVG's viewBox.
    pub view_box: (f64, f64, f64, f64),
}

impl Layout {
    pub fn view_box_attr(&self) -> String {
        let (x, y, w, h) = self.view_box;
        format!("{x:.1} {y:.1} {w:.1} {h:.1}")
    }
}

/// A pill wide enough for `name` in the graph's 13-unit system font (a generous
/// average glyph width, so wide letters fit too).
pub fn pill_width(name: &str) -> f64 {
    (name.chars().count() as f64 * 7.8 + 18.0).max(36.0)
}

pub fn layout(names: &[String]) -> Layout {
    let widths: Vec<f64> = names.iter().map(|n| pill_width(n)).collect();
    let widest = widths.iter().copied().fold(36.0, f64::max);
    let n = names.len();
    let centres: Vec<(f64, f64)> = if n <= 1 {
        vec![(0.0, 0.0); n]
    } else if n == 2 {
        let dx = (widths[0] + widths[1]) / 2.0 + 60.0;
        vec![(0.0, 0.0), (dx, 0.0)]
    } else if n <= CIRCLE_MAX {
        // Neighbours on the circle are a chord apart: make it wider than two half pills.
        let step = std::f64::consts::TAU / n as f64;
        let chord = widest + GAP;
        let r = (chord / (2.0 * (step / 2.0).sin())).max(60.0);
        (0..n)
            .map(|i| {
                let a = -std::f64::consts::FRAC_PI_2 + step * i as f64;
                (r * a.cos(), r * a.sin())
            })
            .collect()
    } else {
        let cols = (n as f64).sqrt().ceil() as usize;
        let (cell_w, cell_h) = (widest + GAP, NODE_H + 2.5 * GAP);
        (0..n)
            .map(|i| {
                // Odd rows shift by half a cell, so arrows along a column miss the pills.
                let (row, col) = (i / cols, i % cols);
                let shift = if row % 2 == 1 { cell_w / 2.0 } else { 0.0 };
                (col as f64 * cell_w + shift, row as f64 * cell_h)
            })
            .collect()
    };
    let nodes: Vec<Node> = centres
        .iter()
        .zip(&widths)
        .map(|(&(x, y), &w)| Node { x, y, w })
        .collect();
    let fold = |f: fn(f64, f64) -> f64, init: f64, pick: &dyn Fn(&Node) -> f64| {
        nodes.iter().map(pick).fold(init, f)
    };
    let min_x = fold(f64::min, 0.0, &|n| n.x - n.w / 2.0) - MARGIN;
    let max_x = fold(f64::max, 0.0, &|n| n.x + n.w / 2.0) + MARGIN;
    let min_y = fold(f64::min, 0.0, &|n| n.y - NODE_H / 2.0) - MARGIN;
    let max_y = fold(f64::max, 0.0, &|n| n.y + NODE_H / 2.0) + MARGIN;
    Layout {
        nodes,
        view_box: (min_x, min_y, max_x - min_x, max_y - min_y),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    /// Every pill lies inside the viewBox and no two pills overlap.
    fn check(names: &[String]) {
        let l = layout(names);
        let (x, y, w, h) = l.view_box;
        assert_eq!(l.nodes.len(), names.len());
        for (i, a) in l.nodes.iter().enumerate() {
            assert!(a.w >= pill_width(&names[i]));
            assert!(
                a.x - a.w / 2.0 >= x && a.x + a.w / 2.0 <= x + w,
                "{} cut off: {l:?}",
                names[i]
            );
            assert!(
                a.y - NODE_H / 2.0 >= y && a.y + NODE_H / 2.0 <= y + h,
                "{} cut off",
                names[i]
            );
            for b in &l.nodes[i + 1..] {
                let apart_x = (a.x - b.x).abs() >= (a.w + b.w) / 2.0;
                let apart_y = (a.y - b.y).abs() >= NODE_H;
                assert!(apart_x || apart_y, "{a:?} overlaps {b:?}");
            }
        }
    }

    #[test]
    fn names_are_never_cut_off_and_never_overlap() {
        check(&names(&["A"]));
        check(&names(&["A", "B"]));
        check(&names(&["worker1", "worker2", "worker3"]));
        check(&names(&[
            "sender",
            "a_very_long_session_name",
            "B",
            "C",
            "D",
            "E",
            "F",
            "G",
        ]));
        let many: Vec<String> = (1..=26).map(|i| format!("consumer{i}")).collect();
        check(&many);
        check(&[]);
    }

    #[test]
    fn few_sessions_sit_on_a_circle_many_in_a_grid() {
        let l = layout(&names(&["A", "B", "C", "D"]));
        let r: Vec<f64> = l
            .nodes
            .iter()
            .map(|n| (n.x * n.x + n.y * n.y).sqrt())
            .collect();
        assert!(r.iter().all(|d| (d - r[0]).abs() < 1e-9), "{r:?}");
        let many: Vec<String> = (1..=26).map(|i| format!("s{i}")).collect();
        let l = layout(&many);
        let rows: std::collections::BTreeSet<i64> = l.nodes.iter().map(|n| n.y as i64).collect();
        assert_eq!(rows.len(), 5);
    }
}
