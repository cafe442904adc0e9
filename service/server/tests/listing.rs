//! ListMatches: newest first, filtered by variant and status, paged with tokens that stay valid
//! while matches are created.

mod common;

use common::*;
use pitchmate_proto::v1 as pb;

#[tokio::test]
async fn matches_list_newest_first_page_stably_and_filter() {
    let server = start().await;
    let mut client = server.matches().await;
    let mut created = Vec::new();
    for _ in 0..5 {
        created.push(create(&mut client).await.match_id);
    }
    let active = seated(&mut client).await.match_id;
    created.push(active.clone());

    let first_page = client
        .list_matches(pb::ListMatchesRequest {
            page_size: 2,
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner();
    let ids = |matches: &[pb::Match]| {
        matches
            .iter()
            .map(|m| m.match_id.clone())
            .collect::<Vec<_>>()
    };
    assert_eq!(
        ids(&first_page.matches),
        [created[5].clone(), created[4].clone()]
    );
    assert!(!first_page.next_page_token.is_empty());

    // Matches created between pages do not shift the next page.
    create(&mut client).await;
    let mut rest = Vec::new();
    let mut token = first_page.next_page_token;
    while !token.is_empty() {
        let page = client
            .list_matches(pb::ListMatchesRequest {
                page_size: 2,
                page_token: token,
                ..Default::default()
            })
            .await
            .unwrap()
            .into_inner();
        rest.extend(ids(&page.matches));
        token = page.next_page_token;
    }
    let older: Vec<String> = created[..4].iter().rev().cloned().collect();
    assert_eq!(rest, older);

    let only_active = client
        .list_matches(pb::ListMatchesRequest {
            status: pb::MatchStatus::Active as i32,
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(ids(&only_active.matches), [active]);
    let other_variant = client
        .list_matches(pb::ListMatchesRequest {
            variant_id: "chessyball".into(),
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner();
    assert!(other_variant.matches.is_empty());
    let by_variant = client
        .list_matches(pb::ListMatchesRequest {
            variant_id: SOCCER_CHESS.into(),
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(by_variant.matches.len(), 7);

    // A token is tied to its filters.
    let filtered = client
        .list_matches(pb::ListMatchesRequest {
            page_size: 1,
            status: pb::MatchStatus::Waiting as i32,
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner();
    let status = client
        .list_matches(pb::ListMatchesRequest {
            page_token: filtered.next_page_token,
            ..Default::default()
        })
        .await
        .unwrap_err();
    assert_eq!(reason(&status), "INVALID_ARGUMENT");
    server.stop().await;
}
